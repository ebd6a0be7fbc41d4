const CR = 13;
const LF = 10;
const PIPE = 0x7c;
/** With a sink: the bytes handed to it at once (the one buffer it is written from, reused). */
const BLOCK = 1 << 16;

/** Where the bytes of a fixed file go as they are made; `bytes` is reused once the call returns. */
export type FixedFileSink = (bytes: Buffer) => void;

/**
 * The bytes of a fixed file (POST /v1/files/fix, csv-fixer.ts), UTF-8, every line ending CRLF, built
 * as the validator reads its lines. With the input's own bytes (`source`, UTF-8 without its BOM),
 * a line left as it was is copied from them, not encoded again, and only the changed cells of a row
 * are encoded; nothing is written at all while every line is as it was and ends CRLF (a file with
 * nothing to fix is its own bytes). Without them (a file decoded from Windows-1252), every line is
 * encoded. The bytes are kept in one buffer (bytes()), or handed to a sink a block at a time
 * (`ppfile fix -o` writes them to the file as they come): no string of the file is made.
 */
export class FixedFile {
  private out: Buffer | null = null;
  private length = 0;
  /** Where the next line starts in `source`. */
  private at = 0;
  /** The line next() found: where it starts, where its text stops, whether it ended CRLF. */
  private start = 0;
  private stop = 0;
  private crlf = false;

  constructor(
    private readonly source: Buffer | null,
    private readonly sink?: FixedFileSink,
  ) {}

  /**
   * The next line of the file, as it was read (`text`, without its line ending). Lines come in the
   * order of the input, every one of them (row() for those whose cells changed) but a lone CR after
   * the last LF, which is no line (the validator does not pass it).
   */
  line(text: string): void {
    if (this.source === null) return this.encode(text);
    this.next();
    const { start, stop } = this;
    if (this.crlf && this.out === null) return;
    if (this.out === null) this.begin(start);
    this.copy(start, stop);
    this.lineEnd();
  }

  /**
   * The next line, a row whose cells were `read` and are now `cells` (as many, some changed): the
   * cells left as they were are copied from the source, only the changed ones are encoded.
   */
  row(cells: readonly string[], read: readonly string[]): void {
    const source = this.source;
    if (source === null) return this.encode(cells.join('|'));
    this.next();
    const { start, stop } = this;
    if (this.out === null) this.begin(start);
    let at = start;
    let verbatim = start;
    const last = cells.length - 1;
    for (let c = 0; c <= last; c++) {
      const end = c < last ? source.indexOf(PIPE, at) : stop;
      if (cells[c] !== read[c]) {
        this.copy(verbatim, at);
        this.text(cells[c]!);
        verbatim = end;
      }
      at = end + 1;
    }
    this.copy(verbatim, stop);
    this.lineEnd();
  }

  /**
   * After the last line: the file's bytes (the source itself when no line needed writing), or, with
   * a sink, an empty buffer once the sink has had them all.
   */
  finish(): Buffer {
    if (this.out === null) {
      const whole = this.source ? this.source.subarray(0, this.at) : Buffer.alloc(0);
      if (!this.sink) return whole;
      if (whole.length > 0) this.sink(whole);
      return Buffer.alloc(0);
    }
    if (!this.sink) return this.out.subarray(0, this.length);
    this.flush();
    return Buffer.alloc(0);
  }

  /** Finds the source's next line. */
  private next(): void {
    const source = this.source!;
    const start = this.at;
    const lf = source.indexOf(LF, start);
    const end = lf < 0 ? source.length : lf;
    this.at = lf < 0 ? source.length : lf + 1;
    // As the validator reads it: one CR before the LF, or before the end of the file, is no text.
    const cr = end > start && source[end - 1] === CR;
    this.crlf = lf >= 0 && cr;
    this.start = start;
    this.stop = cr ? end - 1 : end;
  }

  /**
   * The first line written: the lines before it are the source's bytes as they are. The buffer is
   * zeroed (its pages come zeroed from the system, so that costs nothing until written): finish()
   * answers a view of it, and what lies past them must be no one's old memory.
   */
  private begin(upTo: number): void {
    if (this.sink) {
      this.out = Buffer.allocUnsafeSlow(BLOCK);
      if (upTo > 0) this.sink(this.source!.subarray(0, upTo));
      return;
    }
    const size = this.source ? this.source.length + this.source.length / 32 : 0;
    this.out = Buffer.alloc(Math.ceil(size) + 1024);
    if (this.source) this.length = this.source.copy(this.out, 0, 0, upTo);
  }

  private encode(line: string): void {
    if (this.out === null) this.begin(0);
    this.text(line);
    this.lineEnd();
  }

  private copy(from: number, to: number): void {
    if (to <= from) return;
    this.reserve(to - from);
    const source = this.source!;
    const out = this.out!;
    // A few cells between two changed ones: byte by byte costs less than Buffer#copy's own checks.
    if (to - from < 64) {
      for (let i = from; i < to; i++) out[this.length++] = source[i]!;
      return;
    }
    this.length += source.copy(out, this.length, from, to);
  }

  /** Text encoded as UTF-8: a short ASCII value (a date, a code) byte by byte, anything else by Buffer. */
  private text(value: string): void {
    // At most 3 bytes a UTF-16 unit.
    this.reserve(value.length * 3);
    const out = this.out!;
    if (value.length <= 32) {
      let ascii = true;
      for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) >= 0x80) ascii = false;
      if (ascii) {
        for (let i = 0; i < value.length; i++) out[this.length++] = value.charCodeAt(i);
        return;
      }
    }
    this.length += out.write(value, this.length, 'utf8');
  }

  private lineEnd(): void {
    this.reserve(2);
    this.out![this.length++] = CR;
    this.out![this.length++] = LF;
  }

  /** Room for `bytes` more: the block handed to the sink, or the buffer grown. */
  private reserve(bytes: number): void {
    if (this.length + bytes <= this.out!.length) return;
    if (this.sink) this.flush();
    if (this.length + bytes <= this.out!.length) return;
    const grown = Buffer.alloc(Math.max(this.out!.length * 2, this.length + bytes));
    this.out!.copy(grown, 0, 0, this.length);
    this.out = grown;
  }

  private flush(): void {
    if (this.length > 0) this.sink!(this.out!.subarray(0, this.length));
    this.length = 0;
  }
}
