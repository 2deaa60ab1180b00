/** Opens `url` in a new tab; false when the browser blocked it. */
export function openInNewTab(url: string): boolean {
  const opened = window.open(url, '_blank');
  if (!opened) return false;
  // The opened page must not be able to navigate this tab.
  opened.opener = null;
  return true;
}
