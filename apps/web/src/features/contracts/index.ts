/** Verträge: the running contracts (`/vertraege`) and one record with its chain (`/vertraege/:contractId`). */
export { ContractPage } from './contract-page';
export { ContractsPage } from './contracts-page';
