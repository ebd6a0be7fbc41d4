/** The engine's progress: a labelled <progress> (indeterminate until the worker tells the total). */
export interface Busy {
  label: string;
  done: number;
  total: number;
}

export function ProgressBar({ busy }: { busy: Busy }) {
  const percent = busy.total > 0 ? Math.floor((100 * busy.done) / busy.total) : null;
  return (
    <div class="build-progress" data-testid="build-progress">
      <label for="build-progress-bar">{busy.label}</label>
      <progress
        id="build-progress-bar"
        max={busy.total > 0 ? busy.total : undefined}
        value={busy.total > 0 ? busy.done : undefined}
      />
      {percent !== null && <span class="muted small"> {percent} %</span>}
    </div>
  );
}
