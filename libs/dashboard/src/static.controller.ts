import { All, Controller, Get, Inject, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { assetAt } from './assets/assets';
import { WebAssets } from './assets/web-assets';
import { DashboardExceptionFilter, DashboardNotFound } from './dashboard-errors';
import type { DashboardRequest } from './dashboard-request';

/**
 * The dashboard's stylesheet, script and icon, from memory. Their URLs carry a hash of their
 * content, so they are cached for a year (the security headers' no-store of /dashboard is replaced
 * here) and a new version is a new URL.
 */
@ApiExcludeController()
@Controller('dashboard/static')
@UseFilters(DashboardExceptionFilter)
export class DashboardStaticController {
  constructor(@Inject(WebAssets) private readonly web: WebAssets) {}

  @Get(':name')
  asset(@Req() req: DashboardRequest, @Res() res: Response): void {
    const asset = assetAt(req.path) ?? this.web.at(req.path);
    if (!asset) throw new DashboardNotFound();
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('ETag', asset.etag);
    if (req.header('if-none-match') === asset.etag) {
      res.status(304).end();
      return;
    }
    res.status(200);
    res.setHeader('Content-Type', asset.contentType);
    res.setHeader('Content-Length', String(asset.body.length));
    res.end(asset.body);
  }
}

/** Any other /dashboard path: the dashboard's 404 page, not the API's JSON. Registered last. */
@ApiExcludeController()
@Controller('dashboard')
@UseFilters(DashboardExceptionFilter)
export class DashboardFallbackController {
  @All('*path')
  notFound(): never {
    throw new DashboardNotFound();
  }
}
