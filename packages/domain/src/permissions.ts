/**
 * Permission levels and what each level may reach.
 * The server enforces this matrix on every call; the browser uses it only to offer links.
 */
export const PERMISSION_LEVELS = [1, 2, 3] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export const PERMISSION_NAMES = { consultant: 1, legal: 2, leader: 3 } as const satisfies Record<
  string,
  PermissionLevel
>;
export type PermissionName = keyof typeof PERMISSION_NAMES;

/** How the levels read in the UI and in mails. */
export const PERMISSION_LABELS: Record<PermissionLevel, string> = {
  1: 'Beratung (1)',
  2: 'Legal (2)',
  3: 'Leitung (3)',
};

export function isPermissionLevel(value: unknown): value is PermissionLevel {
  return value === 1 || value === 2 || value === 3;
}

/** Legal staff look after every document and envelope, not only the ones they made themselves. */
export function isLegal(level: PermissionLevel | null | undefined): boolean {
  return level === PERMISSION_NAMES.legal;
}

export function permissionName(level: PermissionLevel): PermissionName {
  const entry = Object.entries(PERMISSION_NAMES).find(([, l]) => l === level);
  if (!entry) throw new RangeError(`unknown permission level ${level}`);
  return entry[0] as PermissionName;
}

/** The document forms of the product, by route. */
export const FORM_ROUTES = {
  docusign: '/contract/docusign',
  docx: '/contract/docx',
  termination: '/termination',
  offer: '/offer',
  agreement: '/agreement',
} as const;
export type FormName = keyof typeof FORM_ROUTES;

export const FORMS_BY_LEVEL: Record<PermissionLevel, readonly FormName[]> = {
  1: ['docusign'],
  2: ['docusign', 'docx', 'termination', 'offer', 'agreement'],
  3: ['docusign', 'offer'],
};

/** Forms a user may open; none for a user without a permission level. */
export function formsFor(level: PermissionLevel | null | undefined): readonly FormName[] {
  return level ? FORMS_BY_LEVEL[level] : [];
}
