/**
 * The account page's words (account-page.ts). English and French side by side (libs/rules `Localized`); i18n.ts joins
 * the catalogues of every page into the dashboard's one.
 */
export const ACCOUNT_TEXTS = {
  account: {
    title: { en: 'Account', fr: 'Compte' },
    email: { en: 'E-mail address', fr: 'Adresse e-mail' },
    organization: { en: 'Organization', fr: 'Organisation' },
    plan: { en: 'Plan', fr: 'Offre' },
    memberSince: { en: 'Member since', fr: 'Membre depuis' },
    people: { en: 'People with access', fr: 'Personnes ayant accès' },
    you: { en: 'you', fr: 'vous' },
    invited: { en: 'invitation pending', fr: 'invitation en attente' },
    peopleHelp: {
      en: 'Your ppfile operator adds people with the command',
      fr: 'Votre opérateur ppfile ajoute des personnes avec la commande',
    },
    changePassword: { en: 'Change password', fr: 'Changer de mot de passe' },
    current: { en: 'Current password', fr: 'Mot de passe actuel' },
    wrongCurrent: { en: 'The current password is wrong.', fr: 'Le mot de passe actuel est incorrect.' },
    changeSubmit: { en: 'Change password', fr: 'Changer le mot de passe' },
    changed: {
      en: 'Your password was changed. Your other sessions were signed out.',
      fr: 'Votre mot de passe a été changé. Vos autres sessions ont été fermées.',
    },
    everywhere: { en: 'Sign out everywhere', fr: 'Se déconnecter partout' },
    everywhereText: {
      en: 'Ends every session of your account, on every device, including this one.',
      fr: 'Ferme toutes les sessions de votre compte, sur tous les appareils, y compris celui-ci.',
    },
    everywhereSubmit: { en: 'Sign out everywhere', fr: 'Se déconnecter partout' },
  },
};
