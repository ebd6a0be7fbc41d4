/**
 * The error pages' words (error-page.ts; dashboard-errors.ts picks one by failure). English and French side by side (libs/rules `Localized`); i18n.ts joins
 * the catalogues of every page into the dashboard's one.
 */
export const ERROR_TEXTS = {
  errors: {
    notFoundTitle: { en: 'Page not found', fr: 'Page introuvable' },
    notFound: {
      en: 'There is nothing here, or it belongs to another organization.',
      fr: 'Cette page n’existe pas, ou elle appartient à une autre organisation.',
    },
    forbiddenTitle: { en: 'Request refused', fr: 'Requête refusée' },
    forbidden: {
      en: 'This form was out of date or sent from another site. Reload the page and try again.',
      fr: 'Ce formulaire n’était plus à jour ou provenait d’un autre site. Rechargez la page et réessayez.',
    },
    unavailableTitle: { en: 'Temporarily unavailable', fr: 'Indisponible pour l’instant' },
    unavailable: {
      en: 'A service the dashboard needs is unavailable. Nothing was changed. Try again in a minute.',
      fr: 'Un service dont le tableau de bord a besoin est indisponible. Rien n’a été modifié. Réessayez dans une minute.',
    },
    bundleMissingTitle: { en: 'Page not built', fr: 'Page non compilée' },
    bundleMissing: {
      en: 'This page runs in your browser and its files were not built on this server. Whoever runs ppfile should run npm run build:web, then restart it.',
      fr: 'Cette page s’exécute dans votre navigateur, mais ses fichiers n’ont pas été compilés sur ce serveur. L’administrateur de ppfile doit lancer npm run build:web, puis redémarrer ppfile.',
    },
    internalTitle: { en: 'Something went wrong', fr: 'Une erreur s’est produite' },
    internal: {
      en: 'An unexpected error occurred. Nothing was changed.',
      fr: 'Une erreur inattendue s’est produite. Rien n’a été modifié.',
    },
    tooLargeTitle: { en: 'Too large', fr: 'Trop volumineux' },
    tooLarge: { en: 'The form sent was too large.', fr: 'Le formulaire envoyé était trop volumineux.' },
    home: { en: 'Back to the dashboard', fr: 'Retour au tableau de bord' },
  },
};
