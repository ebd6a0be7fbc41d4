import request from 'supertest';
import type { Gateway } from './gateway';

/** The password the dashboard tests give the people they invite (a passphrase the rules accept). */
export const PERSON_PASSWORD = 'correct horse battery staple';

/** A cookie's value among an answer's Set-Cookie headers. */
export function cookieValue(res: request.Response, name: string): string | undefined {
  const raw = res.headers['set-cookie'] as unknown;
  const lines = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  const line = lines.find((c) => c.startsWith(`${name}=`));
  return line ? line.slice(name.length + 1).split(';')[0] : undefined;
}

/** The CSRF field of a dashboard form. */
export function csrfField(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF field in the page');
  return m[1]!;
}

/**
 * A person invited into the organization who opened the link and chose PERSON_PASSWORD, over HTTP as
 * a browser does: the value of their session cookie (`ppfile_session`).
 */
export async function signedInPerson(gw: Gateway, organizationId: string, email: string): Promise<string> {
  const { token } = await gw.stores.users.createWithInvitation({ organizationId, email });
  const form = await request(gw.http).get(`/dashboard/invite/${token}`);
  const res = await request(gw.http)
    .post(`/dashboard/invite/${token}`)
    .set('Cookie', `ppfile_csrf=${cookieValue(form, 'ppfile_csrf')!}`)
    .type('form')
    .send({ _csrf: csrfField(form.text), password: PERSON_PASSWORD, confirmation: PERSON_PASSWORD });
  if (res.status !== 303) throw new Error(`the invitation was not accepted: ${res.status}`);
  const session = cookieValue(res, 'ppfile_session');
  if (!session) throw new Error('no session cookie after the invitation');
  return session;
}
