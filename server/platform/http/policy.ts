import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { ZodType } from 'zod';
import { ROLES, type Role } from '../../../src/api/contract/roles';
import type { Locale } from '../../../src/api/contract/messages';
import type { SessionRow, UserRow } from '../db/schema';
import type { AuditDeclaration } from './audit-trail';
import { forbidden } from './errors';
import type { RouteDoc } from './route-doc';

/** The caller of an authenticated route. */
export interface AuthContext {
  user: UserRow;
  role: Role;
  session: SessionRow;
}

/** Finds the caller of a session token (the sessions module); throws the reply of a bad one. */
export type Authenticate = (token: string | undefined) => Promise<AuthContext>;

/**
 * Who may call a route (docs/architecture.md rule 5). Every /api route declares one in `config.policy`;
 * the app refuses to start otherwise.
 * - roles: 'public' (no session needed), 'any' (any logged-in user) or the roles admitted;
 * - scope: the ownership rule the handler applies to rows (documentation for readers and tests);
 * - overstep: whether an overstep session may call it (default true).
 */
export interface Policy {
  roles: 'public' | 'any' | readonly Role[];
  scope?: string;
  overstep?: boolean;
}

/** The contract schemas a route validates its input with (the input tests enumerate them). */
interface RouteInputSchemas {
  body?: ZodType;
  query?: ZodType;
}

export interface RegisteredRoute extends RouteInputSchemas {
  method: string;
  url: string;
  policy: Policy;
  /** Its schemas, for the API reference and the tests' reply check. */
  doc?: RouteDoc;
  /** What it audits, or why nothing (docs/architecture.md §Audit; the tests enumerate it). */
  audit?: AuditDeclaration<never, never>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy;
    input?: RouteInputSchemas;
    audit?: AuditDeclaration<never, never>;
  }
  interface FastifyRequest {
    /** Set for routes whose policy needs a session. */
    auth: AuthContext | null;
    locale: Locale;
  }
  interface FastifyInstance {
    /** Every /api route with its policy and input schemas, as registered (tests enumerate it). */
    apiRoutes: RegisteredRoute[];
  }
}

export const API_PREFIX = '/api/v1';

export class MissingPolicyError extends Error {
  constructor(method: string, url: string, problem: string) {
    super(`route ${method} ${url} ${problem}: every /api route declares config.policy`);
    this.name = 'MissingPolicyError';
  }
}

function checkPolicy(method: string, url: string, policy: unknown): Policy {
  if (!policy || typeof policy !== 'object')
    throw new MissingPolicyError(method, url, 'has no policy');
  const { roles, scope, overstep } = policy as Record<string, unknown>;
  const rolesOk =
    roles === 'public' ||
    roles === 'any' ||
    (Array.isArray(roles) &&
      roles.length > 0 &&
      roles.every((r) => (ROLES as readonly unknown[]).includes(r)));
  if (!rolesOk) throw new MissingPolicyError(method, url, 'has a policy without valid roles');
  if (scope !== undefined && typeof scope !== 'string') {
    throw new MissingPolicyError(method, url, 'has a policy with a non-string scope');
  }
  if (overstep !== undefined && typeof overstep !== 'boolean') {
    throw new MissingPolicyError(method, url, 'has a policy with a non-boolean overstep');
  }
  return policy as Policy;
}

/** The session token of a request (header `token`, docs/domain.md §21). */
export function tokenOf(request: FastifyRequest): string | undefined {
  const token = request.headers['token'];
  return typeof token === 'string' ? token : undefined;
}

/**
 * Installs the two halves of the policy rule on the root instance, before any route exists:
 * an onRoute hook that refuses /api routes without a policy (so start-up fails), and an onRequest
 * hook that enforces the session and the roles before the body is even parsed.
 */
export function installPolicies(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorate('apiRoutes', [] as RegisteredRoute[]);
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/') && route.url !== '/api') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const policy = checkPolicy(method, route.url, route.config?.policy);
      app.apiRoutes.push({
        method,
        url: route.url,
        policy,
        ...route.config?.input,
        doc: route.config?.doc,
        audit: route.config?.audit,
      });
    }
  });

  app.addHook('onRequest', async (request) => {
    const policy = request.routeOptions.config?.policy;
    if (!policy || policy.roles === 'public') return;
    const auth = await authenticate(tokenOf(request));
    // Known before the role check: a refused call's audit row names who was refused.
    request.auth = auth;
    if (policy.roles !== 'any' && !policy.roles.includes(auth.role)) throw forbidden();
    if (auth.session.kind === 'overstep' && policy.overstep === false) throw forbidden();
  });
}
