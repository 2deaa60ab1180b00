import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  type AccessRequest,
  type ApprovalRulesChange,
  type ApprovalRulesView,
  accessRequestSchema,
  approvalRulesViewSchema,
  auditPageSchema,
  type CountersignatureOrder,
  type CountersignaturePosition,
  type CountersignatureSetting,
  countersignatureOrderSchema,
  countersignatureSettingSchema,
  type MatchImportSummary,
  matchImportSummarySchema,
  type NewColleague,
  type PermissionLevel,
  type StaffChange,
  type StaffEntry,
  staffEntrySchema,
} from '@vertragsgenerator/domain';
import { z } from 'zod';
import { apiFetch, apiJson, apiUpload } from '@/lib/api';
import { readChosenFile } from '@/lib/chosen-file';

const acknowledged = z.object({ ok: z.literal(true) });

/** The start of every key of the administration page: a change invalidates it, and all tabs reload. */
export const ADMINISTRATION_QUERY_KEY = ['admin'] as const;

export const accessRequestsQueryOptions = queryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'access-requests'],
  queryFn: () => openAccessRequests(),
});

export const staffQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...ADMINISTRATION_QUERY_KEY, 'staff', search],
    queryFn: () => staffList(search),
    // The table keeps the last answer while the next search runs.
    placeholderData: keepPreviousData,
  });

export const auditQueryOptions = infiniteQueryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'audit'],
  queryFn: ({ pageParam }) => auditPage(pageParam),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page) => page.next,
});

export const countersignatureQueryOptions = queryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'countersignature'],
  queryFn: () => apiJson('/backend/admin/countersignature', countersignatureSettingSchema.array()),
});

/** „Ohne Gegenzeichnung senden erlaubt“ for one document family; answers every family after it. */
export function changeCountersignature(
  family: CountersignatureSetting['family'],
  withoutAllowed: boolean,
): Promise<CountersignatureSetting[]> {
  return apiJson(`/backend/admin/countersignature/${family}`, countersignatureSettingSchema.array(), {
    method: 'PUT',
    body: { withoutAllowed },
  });
}

export const countersignatureOrderQueryOptions = queryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'countersignature-order'],
  queryFn: () => apiJson('/backend/admin/countersignature/order', countersignatureOrderSchema.array()),
});

/** Whether the company signs first or last on the envelopes of one template; answers every template after it. */
export function changeCountersignatureOrder(
  template: string,
  position: CountersignaturePosition,
): Promise<CountersignatureOrder[]> {
  return apiJson(
    `/backend/admin/countersignature/order/${encodeURIComponent(template)}`,
    countersignatureOrderSchema.array(),
    { method: 'PUT', body: { position } },
  );
}

export const approvalRulesQueryOptions = queryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'approval-rules'],
  queryFn: () => apiJson('/backend/approval-rules', approvalRulesViewSchema),
});

/** The approval rules as a whole, with the version they were read at (409 when someone saved meanwhile). */
export function changeApprovalRules(change: ApprovalRulesChange): Promise<ApprovalRulesView> {
  return apiJson('/backend/approval-rules', approvalRulesViewSchema, { method: 'PUT', body: change });
}

export function openAccessRequests(): Promise<AccessRequest[]> {
  return apiJson('/backend/admin/access-requests', accessRequestSchema.array());
}

export function grantAccess(id: string, permission: PermissionLevel) {
  return apiJson(`/backend/admin/access-requests/${encodeURIComponent(id)}/grant`, acknowledged, {
    method: 'POST',
    body: { permission },
  });
}

export function declineAccess(id: string, reason: string) {
  return apiJson(`/backend/admin/access-requests/${encodeURIComponent(id)}/decline`, acknowledged, {
    method: 'POST',
    body: { reason },
  });
}

export function staffList(search: string): Promise<StaffEntry[]> {
  const query = search.trim() ? `?search=${encodeURIComponent(search.trim())}` : '';
  return apiJson(`/backend/admin/staff${query}`, staffEntrySchema.array());
}

export function addColleague(colleague: NewColleague): Promise<StaffEntry> {
  return apiJson('/backend/admin/staff', staffEntrySchema, { method: 'POST', body: colleague });
}

export function changeStaffMember(email: string, change: StaffChange): Promise<StaffEntry> {
  return apiJson(`/backend/admin/staff/${encodeURIComponent(email)}`, staffEntrySchema, {
    method: 'PUT',
    body: change,
  });
}

export async function removeStaffMember(email: string, version: string): Promise<void> {
  await apiFetch(`/backend/admin/staff/${encodeURIComponent(email)}?version=${encodeURIComponent(version)}`, {
    method: 'DELETE',
  });
}

export function auditPage(before?: string) {
  return apiJson(
    `/backend/admin/audit${before ? `?before=${encodeURIComponent(before)}` : ''}`,
    auditPageSchema,
  );
}

/**
 * The dry run (`check`) or the import (`apply`) of a match file, read afresh from the disk; rejects
 * with `UnreadableFileError` when it can no longer be read.
 */
export async function importMatchFile(
  file: File,
  mode: 'check' | 'apply',
  skipInvalid: boolean,
  onProgress: (share: number) => void,
): Promise<MatchImportSummary> {
  const query = new URLSearchParams({ filename: file.name, mode, skipInvalid: String(skipInvalid) });
  const bytes = await readChosenFile(file);
  return apiUpload(`/backend/admin/match-import?${query}`, bytes, matchImportSummarySchema, onProgress);
}
