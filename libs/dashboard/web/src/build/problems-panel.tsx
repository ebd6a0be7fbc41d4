/**
 * The problems: counted by code and by column (a count filters the list), then every problem listed,
 * each a button that shows its cell in the grid.
 */
import { useMemo, useState } from 'preact/hooks';
import { groupProblems, type Problem, type ProblemGroup } from './problems';
import type { Texts } from './texts';

const PAGE = 100;

export interface ProblemCounts {
  errors: number;
  warnings: number;
  truncated: boolean;
  /** Errors by code and by column, counted over every error (the API's summary). */
  summary?: { by_code: Record<string, number>; by_column: Record<string, number> };
}

interface Filter {
  by: 'code' | 'column';
  key: string;
}

interface PanelProps {
  t: Texts;
  problems: readonly Problem[];
  counts: ProblemCounts;
  onGo: (problem: Problem) => void;
}

export function ProblemsPanel({ t, problems, counts, onGo }: PanelProps) {
  const [filter, setFilter] = useState<Filter | null>(null);
  const [shown, setShown] = useState(PAGE);
  const byCode = useMemo(() => groupProblems(problems, 'code', counts.summary?.by_code), [problems, counts]);
  const byColumn = useMemo(
    () => groupProblems(problems, 'column', counts.summary?.by_column),
    [problems, counts],
  );
  const listed = filter
    ? problems.filter((p) => (filter.by === 'code' ? p.code : (p.column ?? '')) === filter.key)
    : problems;
  const choose = (next: Filter) => {
    setFilter(filter?.by === next.by && filter.key === next.key ? null : next);
    setShown(PAGE);
  };

  return (
    <div data-testid="build-problems">
      <p class={counts.errors ? 'build-count bad' : 'build-count ok'} data-testid="build-problem-counts">
        {counts.errors === 0 && counts.warnings === 0 ? t.noErrors : t.counts(counts.errors, counts.warnings)}
      </p>
      {counts.truncated && <p class="muted small">{t.truncated}</p>}
      {problems.length > 0 && (
        <div class="build-groups">
          <Groups t={t} title={t.byCode} by="code" groups={byCode} filter={filter} onChoose={choose} />
          <Groups t={t} title={t.byColumn} by="column" groups={byColumn} filter={filter} onChoose={choose} />
        </div>
      )}
      {problems.length > 0 && (
        <>
          <h3 id="build-list-title">
            {t.list}
            {filter && <span class="muted"> — {t.filter(filter.key || t.noColumn)}</span>}
          </h3>
          {filter && (
            <button type="button" class="btn secondary small" onClick={() => setFilter(null)}>
              {t.showAll}
            </button>
          )}
          <ol class="build-problem-list" aria-labelledby="build-list-title">
            {listed.slice(0, shown).map((p) => (
              <ProblemItem key={p.id} t={t} problem={p} onGo={onGo} />
            ))}
          </ol>
          {listed.length > shown && (
            <button type="button" class="btn secondary small" onClick={() => setShown(shown + PAGE)}>
              {t.showMore(Math.min(PAGE, listed.length - shown))}
            </button>
          )}
        </>
      )}
    </div>
  );
}

interface GroupsProps {
  t: Texts;
  title: string;
  by: Filter['by'];
  groups: ProblemGroup[];
  filter: Filter | null;
  onChoose: (filter: Filter) => void;
}

function Groups({ t, title, by, groups, filter, onChoose }: GroupsProps) {
  return (
    <section class="build-group" aria-label={title} data-testid={`build-groups-${by}`}>
      <h3>{title}</h3>
      <ul>
        {groups.map((g) => (
          <li key={g.key}>
            <button
              type="button"
              class="build-group-button"
              aria-pressed={filter?.by === by && filter.key === g.key}
              data-key={g.key}
              onClick={() => onChoose({ by, key: g.key })}
            >
              <span class="mono">{g.key || t.noColumn}</span>
              {g.errors > 0 && <span class="badge invalid">{t.number(g.errors)}</span>}
              {g.warnings > 0 && <span class="badge build-badge-warn">{t.number(g.warnings)}</span>}
              <span class="visually-hidden">{t.counts(g.errors, g.warnings)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProblemItem({ t, problem: p, onGo }: { t: Texts; problem: Problem; onGo: (p: Problem) => void }) {
  const where =
    p.cell ?? (p.sheetRow !== null ? t.sheetRow(p.sheetRow) : p.row === null ? '' : t.row(p.row + 1));
  return (
    <li class={p.severity === 'error' ? 'build-problem bad' : 'build-problem warn'} data-code={p.code}>
      <span class={p.severity === 'error' ? 'badge invalid' : 'badge build-badge-warn'}>
        {p.severity === 'error' ? t.error : t.warning}
      </span>{' '}
      {p.row !== null ? (
        <button type="button" class="build-link build-go" title={t.goTo} onClick={() => onGo(p)}>
          {where}
          {p.column && ` · ${p.column}`}
        </button>
      ) : (
        <span class="mono">
          {where}
          {p.column && ` · ${p.column}`}
        </span>
      )}{' '}
      <span class="mono small">{p.code}</span> — {p.message}
    </li>
  );
}
