export { hasChanges, ParagraphComparison, type ParagraphComparisonTexts } from './paragraph-comparison';
