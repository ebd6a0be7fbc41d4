/** The states of a generated file (API.md §7), in the order a file goes through them. */
export const FILE_STATUSES = ['processing', 'available', 'not_stored', 'expired', 'failed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];
