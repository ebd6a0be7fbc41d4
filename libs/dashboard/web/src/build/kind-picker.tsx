/** The kind of file: type (adf/jdr) × declarant, and the link to that kind's empty template. */
import { kindQuery, type Kind } from './server';
import type { Texts } from './texts';

interface KindProps {
  t: Texts;
  kind: Kind;
  templateUrl: string;
  disabled: boolean;
  onChange: (kind: Kind) => void;
}

export function KindPicker({ t, kind, templateUrl, disabled, onChange }: KindProps) {
  const types: [Kind['type'], string][] = [
    ['adf', t.typeAdf],
    ['jdr', t.typeJdr],
  ];
  const declarants: [Kind['declarant'], string][] = [
    ['employer', t.employer],
    ['training_organization', t.trainingOrganization],
  ];
  return (
    <div class="build-kind">
      <fieldset disabled={disabled}>
        <legend>{t.type}</legend>
        {types.map(([value, label]) => (
          <label key={value} class="build-choice">
            <input
              type="radio"
              name="build-type"
              value={value}
              checked={kind.type === value}
              onChange={() => onChange({ ...kind, type: value })}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={disabled}>
        <legend>{t.declarant}</legend>
        {declarants.map(([value, label]) => (
          <label key={value} class="build-choice">
            <input
              type="radio"
              name="build-declarant"
              value={value}
              checked={kind.declarant === value}
              onChange={() => onChange({ ...kind, declarant: value })}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <p>
        <a
          class="btn secondary"
          href={`${templateUrl}?${kindQuery(kind)}`}
          download
          data-testid="build-template"
        >
          {t.template}
        </a>
      </p>
      <p class="field-help">{t.templateHelp}</p>
    </div>
  );
}
