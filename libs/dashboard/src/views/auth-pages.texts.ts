/**
 * The sign-in and invitation pages' words (auth-pages.ts), with the password form's. English and French side by side (libs/rules `Localized`); i18n.ts joins
 * the catalogues of every page into the dashboard's one.
 */
export const AUTH_TEXTS = {
  signIn: {
    title: { en: 'Sign in', fr: 'Connexion' },
    intro: {
      en: 'Sign in to manage your organization’s API keys, usage and files.',
      fr: 'Connectez-vous pour gérer les clés d’API, la consommation et les fichiers de votre organisation.',
    },
    email: { en: 'E-mail address', fr: 'Adresse e-mail' },
    password: { en: 'Password', fr: 'Mot de passe' },
    submit: { en: 'Sign in', fr: 'Se connecter' },
    wrong: { en: 'Wrong e-mail address or password.', fr: 'Adresse e-mail ou mot de passe incorrect.' },
    throttled: {
      en: (minutes: number) =>
        `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      fr: (minutes: number) =>
        `Trop de tentatives de connexion échouées. Réessayez dans ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    },
    signedOut: { en: 'You are signed out.', fr: 'Vous êtes déconnecté.' },
    expired: {
      en: 'Your session has ended. Sign in again to continue.',
      fr: 'Votre session a pris fin. Reconnectez-vous pour continuer.',
    },
    passwordChanged: {
      en: 'Your password was changed. Sign in again on your other devices.',
      fr: 'Votre mot de passe a été changé. Reconnectez-vous sur vos autres appareils.',
    },
    noAccount: {
      en: 'No account yet? Your ppfile operator creates one and sends you an invitation link.',
      fr: 'Pas encore de compte\u00a0? Votre opérateur ppfile en crée un et vous envoie un lien d’invitation.',
    },
  },
  invite: {
    title: { en: 'Set your password', fr: 'Choisissez votre mot de passe' },
    intro: {
      en: (org: string) => `You were invited to the dashboard of ${org}. Choose a password to finish.`,
      fr: (org: string) =>
        `Vous êtes invité au tableau de bord de ${org}. Choisissez un mot de passe pour terminer.`,
    },
    invalidTitle: { en: 'Invitation link not valid', fr: 'Lien d’invitation non valable' },
    invalid: {
      en: 'This invitation link is unknown, was already used, or has expired. Ask your ppfile operator for a new one.',
      fr: 'Ce lien d’invitation est inconnu, a déjà servi ou a expiré. Demandez-en un nouveau à votre opérateur ppfile.',
    },
    submit: { en: 'Set password and sign in', fr: 'Enregistrer et se connecter' },
  },
  password: {
    new: { en: 'New password', fr: 'Nouveau mot de passe' },
    confirm: { en: 'Repeat the new password', fr: 'Répétez le nouveau mot de passe' },
    hint: {
      en: (min: number) =>
        `At least ${min} characters, not a common password. A passphrase of several words is easy to remember.`,
      fr: (min: number) =>
        `Au moins ${min} caractères, pas un mot de passe courant. Une phrase de plusieurs mots se retient facilement.`,
    },
    too_short: {
      en: (min: number) => `The password needs at least ${min} characters.`,
      fr: (min: number) => `Le mot de passe doit compter au moins ${min} caractères.`,
    },
    too_long: {
      en: (max: number) => `The password can have at most ${max} characters.`,
      fr: (max: number) => `Le mot de passe peut compter au plus ${max} caractères.`,
    },
    blank: {
      en: 'The password cannot be made of spaces only.',
      fr: 'Le mot de passe ne peut pas être fait que d’espaces.',
    },
    contains_email: {
      en: 'The password cannot contain your e-mail address or its part before the @.',
      fr: 'Le mot de passe ne peut pas contenir votre adresse e-mail ni sa partie avant le @.',
    },
    repeated: {
      en: 'The password repeats a character or a short pattern (like aaaa… or abcabc…). Choose one that is harder to guess.',
      fr: 'Le mot de passe répète un caractère ou un court motif (comme aaaa… ou abcabc…). Choisissez-en un plus difficile à deviner.',
    },
    sequence: {
      en: 'The password is a sequence (like 123456…, abcdef… or a keyboard row such as azerty…). Choose one that is harder to guess.',
      fr: 'Le mot de passe est une suite (comme 123456…, abcdef… ou une rangée du clavier comme azerty…). Choisissez-en un plus difficile à deviner.',
    },
    common: {
      en: 'This password is one of the most common ones, which attackers try first (with or without digits at the end). Choose another one — a passphrase of several words, for example.',
      fr: 'Ce mot de passe est l’un des plus courants, que les attaquants essaient en premier (avec ou sans chiffres à la fin). Choisissez-en un autre, par exemple une phrase de plusieurs mots.',
    },
    mismatch: { en: 'The two passwords differ.', fr: 'Les deux mots de passe diffèrent.' },
  },
};
