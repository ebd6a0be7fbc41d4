import { All, Controller, Get, Inject, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { assetAt, type Asset } from './assets/assets';
import { WebAssets } from './assets/web-assets';
import { DashboardExceptionFilter, DashboardNotFound } from './dashboard-errors';
import type { DashboardRequest } from './dashboard-request';

/** The encodings an Accept-Encoding takes (a `q=0` refuses one), in the order we prefer them. */
export function acceptedEncoding(header: string | undefined, asset: Asset): 'br' | 'gzip' | null {
  const accepted = new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, ...params]) => !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)))
      .map(([name]) => name!.trim()),
  );
  if (asset.br && accepted.has('br')) return 'br';
  if (asset.gzip && (accepted.has('gzip') || accepted.has('x-gzip'))) return 'gzip';
  return null;
}

/**
 * The dashboard's stylesheet, script and icon, the front end's bundle and the reference lists
 * (web-assets.ts), from memory. Their URLs carry a hash of their content, so they are cached for a
 * year (the security headers' no-store of /dashboard is replaced here) and a new version is a new
 * URL. What has compressed forms is answered in the one the browser takes.
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
    const encoding = acceptedEncoding(req.header('accept-encoding'), asset);
    // Each representation has its own tag (RFC 9110 §8.8.3).
    const etag = encoding ? `${asset.etag.slice(0, -1)}-${encoding}"` : asset.etag;
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    if (asset.br || asset.gzip) res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', etag);
    if (req.header('if-none-match') === etag) {
      res.status(304).end();
      return;
    }
    const body = encoding ? asset[encoding]! : asset.body;
    res.status(200);
    res.setHeader('Content-Type', asset.contentType);
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', String(body.length));
    res.end(body);
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
