/** Where a screenshot of `npm run screenshots` goes: docs/screenshots/<name>.png. */
export const shot = (name: string) => `docs/screenshots/${name}.png`;
