export { CheckSection } from './check-section';
export { MatchTrial } from './match-trial';
export { type PublishableVersion, PublishSection } from './publish-section';
export { versionLibraryTexts } from './texts';
export { type ListedVersion, VersionTable } from './version-table';
