import autocannon from 'autocannon';

// One load run per process (see load.mjs): options in, result out, then exit.
process.once('message', async (options) => {
  try {
    const result = await autocannon(options);
    process.send({ result }, () => process.exit(0));
  } catch (error) {
    process.send({ error: error instanceof Error ? error.message : String(error) }, () => process.exit(0));
  }
});
