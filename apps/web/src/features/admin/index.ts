export { AdministrationPage } from './administration-page';
