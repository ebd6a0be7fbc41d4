import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * HTTP Basic authentication of operators (OPERATOR_USER / OPERATOR_PASSWORD), for the operator
 * pages such as Bull Board (API.md §12): never an organization's API key. Without configured
 * credentials the pages do not exist (404).
 */
export function operatorAuth(operator: { user: string; password: string } | null) {
  const expected = operator ? digest(`${operator.user}:${operator.password}`) : null;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!expected) {
      res.status(404).type('text/plain').send('Operator pages are disabled: set OPERATOR_USER and OPERATOR_PASSWORD.\n');
      return;
    }
    const header = req.header('authorization') ?? '';
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
    const given = match ? digest(Buffer.from(match[1]!, 'base64').toString('utf8')) : null;
    // Compared as fixed-length digests, in constant time.
    if (given && timingSafeEqual(given, expected)) return next();
    res.setHeader('WWW-Authenticate', 'Basic realm="ppfile operators", charset="UTF-8"');
    res.status(401).type('text/plain').send('Operator credentials required.\n');
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
