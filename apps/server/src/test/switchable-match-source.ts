import { type MatchSource, MatchSourceUnavailableError } from '../matches/match-source.js';

/** A match source that can be switched off, like a CRM that is down. */
export class SwitchableSource implements MatchSource {
  down = false;
  constructor(private readonly inner: MatchSource) {}
  find(matchId: string) {
    if (this.down) return Promise.reject(new MatchSourceUnavailableError('CRM down'));
    return this.inner.find(matchId);
  }
  findMany(matchIds: readonly string[]) {
    if (this.down) return Promise.reject(new MatchSourceUnavailableError('CRM down'));
    return this.inner.findMany(matchIds);
  }
}
