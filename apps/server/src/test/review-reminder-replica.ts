// A replica's run of the review reminders that dies before it commits: it writes its reminder mails in
// the run's transaction, says "enqueued" on stdout and then waits, holding the transaction open, for the
// test to kill it (SIGKILL). Run with `node --conditions=source --import tsx` and the database's URL.
import { openDatabase } from '../db/database.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { ReviewLinks } from '../reviews/review-links.js';
import { remindReviewers } from '../reviews/review-reminders.js';
import { loadSigningLinkKey } from '../signature/signing-links.js';

class OutboxThatHangs extends MailOutbox {
  override async enqueue(...args: Parameters<MailOutbox['enqueue']>): Promise<void> {
    await super.enqueue(...args);
    process.stdout.write('enqueued\n');
    // Kept open until the process is killed: the timer keeps the event loop alive.
    await new Promise(() => setInterval(() => {}, 60_000));
  }
}

const [url, at] = process.argv.slice(2);
if (!url || !at) throw new Error('usage: review-reminder-replica <postgres url> <ISO instant>');
const db = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
const outbox = new OutboxThatHangs(db, { send: async () => {} }, 'support@demo.local');
const links = new ReviewLinks({
  key: await loadSigningLinkKey(db),
  publicUrl: 'http://localhost',
  now: () => new Date(at),
});
await remindReviewers({ db, outbox, links }, new Date(at));
