import { Controller, Get, Inject, Param, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { FILE_ID } from '@ppfile/contract';
import { ApiKeyStore, FileStore, type FileRecord } from '@ppfile/db';
import { Clock } from '@ppfile/infra';
import { ObjectStorage } from '@ppfile/storage';
import { downloadState } from '@ppfile/contract';
import { DashboardExceptionFilter, DashboardNotFound, sendPage } from './dashboard-errors';
import type { DashboardRequest, SignedIn } from './dashboard-request';
import { Session, SignedInGuard } from './signed-in';
import { fileNotDownloadablePage, filesPage, stateOf } from './views/files-pages';
import { viewContext } from './views/layout';

export const FILES_PER_PAGE = 25;

/**
 * The organization's files and their downloads. The API lets only the creating key download a
 * file (SERVICE.md §4.5); the dashboard downloads on behalf of the organization: any file of the
 * signed-in person's organization, and nothing else (another organization's file is 404, as a
 * missing one).
 */
@ApiExcludeController()
@Controller('dashboard/files')
@UseFilters(DashboardExceptionFilter)
@UseGuards(SignedInGuard)
export class DashboardFilesController {
  constructor(
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(ApiKeyStore) private readonly apiKeys: ApiKeyStore,
    @Inject(ObjectStorage) private readonly storage: ObjectStorage,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get()
  async list(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Session() session: SignedIn,
    @Query('page') pageParam: unknown,
  ): Promise<void> {
    const org = session.organization.id;
    const requested =
      typeof pageParam === 'string' && /^\d{1,6}$/.test(pageParam) ? Math.max(1, Number(pageParam)) : 1;
    let result = await this.files.listForOrganization(org, { page: requested, perPage: FILES_PER_PAGE });
    const pages = Math.max(1, Math.ceil(result.total / FILES_PER_PAGE));
    const page = Math.min(requested, pages);
    if (page !== requested)
      result = await this.files.listForOrganization(org, { page, perPage: FILES_PER_PAGE });
    const keys = await this.apiKeys.listApiKeys(org);
    sendPage(
      res,
      200,
      filesPage(viewContext(req), {
        files: result.files,
        total: result.total,
        page,
        pages,
        keys: new Map(keys.map((k) => [k.id, k])),
        now: this.clock.now(),
      }),
    );
  }

  /** The CSV as the API serves it (API.md §7): same type, disposition, ETag and bytes. */
  @Get(':id/download')
  async download(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Session() session: SignedIn,
    @Param('id') id: string,
  ): Promise<void> {
    const record = await this.ownFile(session, id);
    const now = this.clock.now();
    const state = downloadState(record, now);
    if (state.kind !== 'available') {
      const shown = stateOf(record, now);
      res.locals.errorCode =
        state.kind === 'expired'
          ? 'FILE_EXPIRED'
          : state.kind === 'not_stored'
            ? 'FILE_NOT_STORED'
            : 'FILE_NOT_AVAILABLE';
      const status = state.kind === 'expired' ? 410 : state.kind === 'not_stored' ? 404 : 409;
      return sendPage(
        res,
        status,
        fileNotDownloadablePage(viewContext(req), state.kind === 'expired' ? 'expired' : shown),
      );
    }
    const content = await this.storage.get(state.objectKey);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${record.filename}"`);
    res.setHeader('ETag', `"${record.sha256 ?? ''}"`);
    res.setHeader('Content-Length', String(content.length));
    res.end(content);
  }

  private async ownFile(session: SignedIn, id: string): Promise<FileRecord> {
    const record = FILE_ID.test(id) ? await this.files.getFileRecord(id) : null;
    if (!record || record.organizationId !== session.organization.id) throw new DashboardNotFound();
    return record;
  }
}
