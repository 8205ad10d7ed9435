/**
 * The sandbox platform (a fake Douyin Open Platform under `/sandbox-platform`): its routes,
 * registered by server/app.ts outside the API. Its test accounts are seeded on first use
 * (`ensureSandboxAccounts` in repo.ts) and listed by `GET /sandbox-platform/__control/accounts`.
 */
export { sandboxPlatformRoutes } from './routes';
