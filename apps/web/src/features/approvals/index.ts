export { ApprovalBatchPage } from './approval-batch-page';
export { ApprovalsPage } from './approvals-page';
