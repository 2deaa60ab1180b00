import { type ApprovalRequest, approvalRequestSchema } from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';

/**
 * After an interrupted send to DocuSign: the requester (or an administrator) checked DocuSign and
 * confirms the envelope is not there; the answer is the request with its new send.
 */
export function sendApprovalAgain(id: string): Promise<ApprovalRequest> {
  return apiJson(`/backend/approvals/${encodeURIComponent(id)}/send-again`, approvalRequestSchema, {
    method: 'POST',
    body: { notAtDocusign: true },
  });
}
