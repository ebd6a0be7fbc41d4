import { TEST_ROWS } from './layout.texts';

/**
 * The API keys pages' words (keys-pages.ts). English and French side by side (libs/rules `Localized`); i18n.ts joins
 * the catalogues of every page into the dashboard's one.
 */
export const KEYS_TEXTS = {
  keys: {
    title: { en: 'API keys', fr: 'Clés d’API' },
    introBefore: {
      en: 'Programs call the API with a key in the header',
      fr: 'Les programmes appellent l’API avec une clé dans l’en-tête',
    },
    introHeader: { en: 'Authorization: Bearer <key>', fr: 'Authorization: Bearer <clé>' },
    introAfter: {
      en: `Test keys are free (${TEST_ROWS} rows a request); live keys count units against your quota.`,
      fr: `Les clés de test sont gratuites (${TEST_ROWS} lignes par requête)\u00a0; les clés live consomment des unités de votre quota.`,
    },
    name: { en: 'Name', fr: 'Nom' },
    mode: { en: 'Mode', fr: 'Mode' },
    prefix: { en: 'Key', fr: 'Clé' },
    created: { en: 'Created', fr: 'Créée' },
    lastUsed: { en: 'Last used', fr: 'Dernière utilisation' },
    status: { en: 'Status', fr: 'État' },
    never: { en: 'never', fr: 'jamais' },
    active: { en: 'Active', fr: 'Active' },
    revokedOn: { en: (date: string) => `Revoked ${date}`, fr: (date: string) => `Révoquée le ${date}` },
    revoke: { en: 'Revoke…', fr: 'Révoquer…' },
    none: { en: 'No key yet.', fr: 'Aucune clé pour l’instant.' },
    unnamed: { en: '(no name)', fr: '(sans nom)' },
    createTitle: { en: 'Create a key', fr: 'Créer une clé' },
    nameLabel: { en: 'Name (optional)', fr: 'Nom (facultatif)' },
    namePlaceholder: { en: 'e.g. payroll export', fr: 'p. ex. export paie' },
    modeTest: { en: 'Test', fr: 'Test' },
    modeTestHelp: {
      en: `free, ${TEST_ROWS} rows a request, for trying`,
      fr: `gratuite, ${TEST_ROWS} lignes par requête, pour essayer`,
    },
    modeLive: { en: 'Live', fr: 'Live' },
    modeLiveHelp: {
      en: 'counts units against your monthly quota',
      fr: 'consomme des unités de votre quota mensuel',
    },
    createSubmit: { en: 'Create key', fr: 'Créer la clé' },
    createdTitle: { en: 'Your new key', fr: 'Votre nouvelle clé' },
    createdWarning: {
      en: 'Copy this key now: it is shown only once. ppfile keeps only a hash of it and cannot show it again.',
      fr: 'Copiez cette clé maintenant\u00a0: elle n’est affichée qu’une fois. ppfile n’en garde qu’une empreinte et ne peut pas la réafficher.',
    },
    copy: { en: 'Copy', fr: 'Copier' },
    copied: { en: 'Copied', fr: 'Copiée' },
    done: { en: 'I have stored it — back to the keys', fr: 'Je l’ai enregistrée — retour aux clés' },
    example: { en: 'Try it:', fr: 'Pour essayer\u00a0:' },
    revokeTitle: { en: 'Revoke this key?', fr: 'Révoquer cette clé\u00a0?' },
    revokeText: {
      en: 'Programs that use this key will be refused (401) within a few seconds. This cannot be undone; create a new key to replace it.',
      fr: 'Les programmes qui utilisent cette clé seront refusés (401) d’ici quelques secondes. C’est définitif\u00a0; créez une nouvelle clé pour la remplacer.',
    },
    revokeConfirm: {
      en: (name: string) =>
        `Revoke the key ${name}? Programs using it will be refused. This cannot be undone.`,
      fr: (name: string) =>
        `Révoquer la clé ${name}\u00a0? Les programmes qui l’utilisent seront refusés. C’est définitif.`,
    },
    revokeSubmit: { en: 'Revoke key', fr: 'Révoquer la clé' },
    cancel: { en: 'Cancel', fr: 'Annuler' },
    revoked: {
      en: (name: string) => `The key ${name} was revoked.`,
      fr: (name: string) => `La clé ${name} a été révoquée.`,
    },
    alreadyRevoked: { en: 'This key is already revoked.', fr: 'Cette clé est déjà révoquée.' },
    nameTooLong: {
      en: (max: number) => `The name can have at most ${max} characters.`,
      fr: (max: number) => `Le nom peut compter au plus ${max} caractères.`,
    },
    modeRequired: { en: 'Choose test or live.', fr: 'Choisissez test ou live.' },
  },
};
