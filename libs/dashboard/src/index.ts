/**
 * @ppfile/dashboard — the organizations' dashboard (API.md §12): server-rendered pages in English
 * and French under /dashboard, a Nest module the gateway mounts (`DashboardModule.forRoot`) with
 * the middleware it orders before the pages (`DashboardSessionMiddleware`, `dashboardFormBody`).
 */
export * from './dashboard-options';
export * from './dashboard.module';
export * from './file-generator';
export { dashboardFormBody, dashboardJsonBody, DashboardSessionMiddleware } from './session.middleware';
