/** Where the spreadsheet comes in: a drop zone around a real file input (usable with the keyboard). */
import { useState } from 'preact/hooks';
import type { Texts } from './texts';

const ACCEPT =
  '.xlsx,.csv,.tsv,.txt,.xls,.xlsm,.ods,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv,text/tab-separated-values';
/** .xls, .xlsm and .ods go to the engine too: it says for each how to save it as .xlsx. */
const READABLE = /\.(xlsx|csv|tsv|txt|xls|xlsm|ods)$/i;

interface DropProps {
  t: Texts;
  disabled: boolean;
  fileName: string | null;
  onFile: (file: File) => void;
  onWrongFile: () => void;
}

export function FileDrop({ t, disabled, fileName, onFile, onWrongFile }: DropProps) {
  const [over, setOver] = useState(false);
  const take = (file: File | undefined) => {
    if (!file) return;
    if (READABLE.test(file.name)) onFile(file);
    else onWrongFile();
  };
  return (
    <div
      class={over ? 'build-drop over' : 'build-drop'}
      data-testid="build-drop"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        if (!disabled) take(e.dataTransfer?.files[0]);
      }}
    >
      <p class="build-drop-title">{t.drop}</p>
      <p class="muted">{t.or}</p>
      <label for="build-file">{t.choose}</label>
      <input
        id="build-file"
        type="file"
        accept={ACCEPT}
        disabled={disabled}
        data-testid="build-file-input"
        onChange={(e) => {
          const input = e.currentTarget;
          take(input.files?.[0]);
          // The same file chosen again (after a change in Excel) is read again.
          input.value = '';
        }}
      />
      {fileName && <p class="build-file-name mono">{fileName}</p>}
    </div>
  );
}
