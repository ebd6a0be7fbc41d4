/** SIRET: 14 digits with a Luhn check key; La Poste's establishments (SIREN 356000000) use their own rule. */

const LA_POSTE_SIREN = '356000000';

export function isSiretFormat(value: string): boolean {
  return /^\d{14}$/.test(value);
}

export function hasValidSiretKey(siret: string): boolean {
  if (luhn(siret)) return true;
  // La Poste numbers its establishments so that the digit sum is a multiple of 5 (INSEE rule).
  if (siret.startsWith(LA_POSTE_SIREN)) {
    let sum = 0;
    for (let i = 0; i < siret.length; i++) sum += siret.charCodeAt(i) - 48;
    return sum % 5 === 0;
  }
  return false;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
