/**
 * The files pages' words (files-pages.ts). English and French side by side (libs/rules `Localized`); i18n.ts joins
 * the catalogues of every page into the dashboard's one.
 */
export const FILES_TEXTS = {
  files: {
    /** The key column of a file made on the Build page (under the person's dashboard key). */
    dashboardKey: { en: 'Build a file (dashboard)', fr: 'Construire un fichier (tableau de bord)' },
    title: { en: 'Files', fr: 'Fichiers' },
    intro: {
      en: 'Files your organization generated through the API. Available files can be downloaded until they expire.',
      fr: 'Les fichiers générés par votre organisation avec l’API. Les fichiers disponibles peuvent être téléchargés jusqu’à leur expiration.',
    },
    file: { en: 'File', fr: 'Fichier' },
    kind: { en: 'Kind', fr: 'Type' },
    key: { en: 'Key', fr: 'Clé' },
    status: { en: 'Status', fr: 'État' },
    rows: { en: 'Rows', fr: 'Lignes' },
    created: { en: 'Created', fr: 'Créé' },
    expires: { en: 'Expires', fr: 'Expire' },
    download: { en: 'Download', fr: 'Télécharger' },
    none: {
      en: 'No file yet. Files generated with POST /v1/files/generate appear here.',
      fr: 'Aucun fichier pour l’instant. Les fichiers générés avec POST /v1/files/generate apparaissent ici.',
    },
    status_processing: { en: 'Processing', fr: 'En cours' },
    status_available: { en: 'Available', fr: 'Disponible' },
    status_not_stored: { en: 'Not stored', fr: 'Non conservé' },
    status_expired: { en: 'Expired', fr: 'Expiré' },
    status_failed: { en: 'Failed', fr: 'Échec' },
    inTime: { en: (t: string) => `in ${t}`, fr: (t: string) => `dans ${t}` },
    expired: { en: 'expired', fr: 'expiré' },
    previous: { en: '← Newer', fr: '← Plus récents' },
    next: { en: 'Older →', fr: 'Plus anciens →' },
    pageOf: {
      en: (page: number, pages: number, total: string) => `Page ${page} of ${pages} · ${total} files`,
      fr: (page: number, pages: number, total: string) => `Page ${page} sur ${pages} · ${total} fichiers`,
    },
    notAvailable: { en: 'This file cannot be downloaded.', fr: 'Ce fichier ne peut pas être téléchargé.' },
    notStored: {
      en: 'This file was generated with store: false: only its metadata was kept.',
      fr: 'Ce fichier a été généré avec store: false\u00a0: seules ses métadonnées ont été conservées.',
    },
    processing: {
      en: 'This file is still being generated. Try again in a few seconds.',
      fr: 'Ce fichier est encore en cours de génération. Réessayez dans quelques secondes.',
    },
    failed: {
      en: 'The generation of this file failed; nothing was kept.',
      fr: 'La génération de ce fichier a échoué\u00a0; rien n’a été conservé.',
    },
    expiredText: {
      en: 'This file has expired and was deleted.',
      fr: 'Ce fichier a expiré et a été supprimé.',
    },
    back: { en: 'Back to the files', fr: 'Retour aux fichiers' },
  },
};
