/** What "Apply safe fixes" changed: row, column, before → after (the values stay on this computer). */
import type { Fix } from './data-section';
import type { Texts } from './texts';

const SHOWN = 500;

interface FixesProps {
  t: Texts;
  changes: readonly Fix[];
}

export function FixesList({ t, changes }: FixesProps) {
  return (
    <div class="build-fixes" data-testid="build-fixes">
      <h3>{t.fixesTitle}</h3>
      <p data-testid="build-fixes-count">{t.fixesDone(changes.length)}</p>
      {changes.length > 0 && (
        <div class="table-wrap build-fixes-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t.rowHeader}</th>
                <th scope="col">{t.column}</th>
                <th scope="col">{t.before}</th>
                <th scope="col">{t.after}</th>
              </tr>
            </thead>
            <tbody>
              {changes.slice(0, SHOWN).map(({ change, row }, i) => (
                <tr key={i} data-rule={change.rule}>
                  <td>{row === null ? '' : row + 1}</td>
                  <td class="mono">{change.column}</td>
                  <td class="mono build-before">{change.from}</td>
                  <td class="mono build-after">{change.to}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {changes.length > SHOWN && <p class="muted small">… {t.number(changes.length - SHOWN)}</p>}
    </div>
  );
}
