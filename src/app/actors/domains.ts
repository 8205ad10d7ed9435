/**
 * The domains area (docs/domain.md §12): the admin's list of domains with its filters, the
 * domain form (its draft in the domain-form machine, so the brand preview reads the same
 * values), enable / disable and delete, and the partners the owner picker offers. After a change
 * the area reloads the list itself; views only select and send.
 */
import { createActor, fromPromise } from 'xstate';
import type { PlatformUserPage } from '../../api/contract/customers';
import type { Domain, DomainEditBody } from '../../api/contract/domains';
import * as api from '../../api/domains';
import { getPlatformUsers } from '../../api/money';
import { uploadPlatformImage } from '../../api/platform-images';
import { domainFormMachine } from '../../machines/domain-form';
import { defineArea, lazyActors } from './areas';
import { imageUploadActor, type ImageUploadActor } from './image-uploads';
import { dialogActor, listActor, loadActor, submitActor, toast, whenChanged } from './factories';

export interface DomainsEndpoints {
  getDomains: typeof api.getDomains;
  addDomain: typeof api.addDomain;
  editDomain: typeof api.editDomain;
  deleteDomains: typeof api.deleteDomains;
  getPlatformUsers: typeof getPlatformUsers;
  uploadPlatformImage: typeof uploadPlatformImage;
}

export interface DomainFilters {
  keyword: string;
  /** '' every owner, '0' the platform, else a partner's id. */
  owner: string;
}
export const NO_DOMAIN_FILTERS: DomainFilters = { keyword: '', owner: '' };

/** The owner picker offers this many partners (a partner beyond them keeps its own name). */
export const OWNER_CHOICES_LIMIT = 50;

function createDomainActors(e: DomainsEndpoints) {
  return lazyActors(
    {
      list: () =>
        listActor<DomainFilters, Domain>(
          'domains',
          ({ filters, page, limit }, signal) =>
            e.getDomains(
              {
                keyword: filters.keyword.trim(),
                owner_id: filters.owner === '' ? '' : Number(filters.owner),
                page,
                limit,
              },
              { signal },
            ),
          NO_DOMAIN_FILTERS,
        ),
      form: () =>
        createActor(
          domainFormMachine.provide({
            actors: {
              submit: fromPromise(({ input }) =>
                input.kind === 'add' ? e.addDomain(input.body) : e.editDomain(input.body),
              ),
            },
          }),
        ),
      remove: () =>
        dialogActor<Domain, { ids: number[] }>('domainDelete', (_row, p) => e.deleteDomains(p)),
      status: () => submitActor<DomainEditBody, Domain>((body) => e.editDomain(body)),
      /** The logo's and the favicon's uploads: each uploaded image's address goes into the draft. */
      logo: () =>
        imageUploadActor('logo', (purpose, file, signal) =>
          e.uploadPlatformImage(purpose, file, { signal }),
        ),
      favicon: () =>
        imageUploadActor('favicon', (purpose, file, signal) =>
          e.uploadPlatformImage(purpose, file, { signal }),
        ),
      owners: () =>
        loadActor<PlatformUserPage>('domainOwners', (signal) =>
          e.getPlatformUsers({ user_type: 1, limit: OWNER_CHOICES_LIMIT }, { signal }),
        ),
    },
    (actors, started) => {
      const reload = () => started('list')?.send({ type: 'RELOAD' });
      const intoDraft = (field: 'logo' | 'favicon') => (upload: ImageUploadActor) => [
        upload.on('uploaded', ({ image }) =>
          actors.form.send({ type: 'CHANGE', field, value: image.url }),
        ),
      ];
      return {
        logo: intoDraft('logo'),
        favicon: intoDraft('favicon'),
        form: (form) => [
          // A form closed or opened anew: no upload of the last one goes on, nor its error.
          whenChanged(
            form,
            (s) => (s.hasTag('open') ? 'open' : 'closed'),
            () => {
              started('logo')?.send({ type: 'RESET' });
              started('favicon')?.send({ type: 'RESET' });
            },
          ),
          whenChanged(
            form,
            (s) => s.context.completed,
            () => {
              toast('success', 'domains.saved');
              reload();
            },
          ),
        ],
        remove: (remove) => [
          whenChanged(
            remove,
            (s) => s.context.completed,
            () => {
              toast('success', 'domains.deleted');
              reload();
            },
          ),
        ],
        status: (status) => [
          status.subscribe((s) => {
            if (!s.matches('done')) return;
            const row = s.context.result as Domain | null;
            const text = row?.status === 1 ? 'domains.enabledDone' : 'domains.disabledDone';
            toast('success', text, { hostname: row?.hostname ?? '' });
            status.send({ type: 'RESET' });
            reload();
          }),
        ],
      };
    },
  );
}

export type DomainActors = ReturnType<typeof createDomainActors>;

export const domainsArea = defineArea<DomainsEndpoints, DomainActors>({
  key: 'domains',
  live: () => ({ ...api, getPlatformUsers, uploadPlatformImage }),
  create: (endpoints) => createDomainActors(endpoints),
});
