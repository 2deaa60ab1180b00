/**
 * The review page's opening sentence in both languages, in a module of its own: review.html's entry
 * shows it before the page's code (and the rest of its texts) has loaded (app/review/early-header.ts).
 */
export const reviewIntro = {
  de: (company: string) =>
    `${company} bittet Sie, diesen Vertrag zu prüfen. Sie können ihn kommentieren, Änderungen vorschlagen und ihn dann zurücksenden.`,
  en: (company: string) =>
    `${company} asks you to review this contract. You can comment on it, suggest changes and then send it back.`,
};
