import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy…/waitFor give up after 1 s by default: too short for a lazily loaded route while the other test
// files run beside it on a 2-core machine. A failing assertion still fails, only later.
configure({ asyncUtilTimeout: 5_000 });

// Vitest globals are off, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  // Mantine keeps notifications in a module-level store that outlives a test's DOM.
  notifications.clean();
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// jsdom lacks the browser APIs Mantine uses for media queries and element sizes.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

window.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

window.HTMLElement.prototype.scrollIntoView = () => {};

// jsdom's File lacks arrayBuffer(), which every browser the app supports has; its FileReader reads.
// Not on Blob: Node's Response would then take jsdom's Blobs for its own and fail on their missing stream().
window.File.prototype.arrayBuffer ??= function arrayBuffer(this: File) {
  return new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(this);
  });
};

// Node 26's Response.blob() makes its Blob with the global constructor, jsdom's here, which lacks text()
// (Node 20 made one of its own); every browser the app supports has it. text() alone leaves jsdom's Blobs
// unlike Node's, so Node's Response still does not take them for its own (see above).
window.Blob.prototype.text ??= function text(this: Blob) {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(this);
  });
};
