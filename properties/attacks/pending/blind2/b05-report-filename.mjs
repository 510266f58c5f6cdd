// b05 — process.report.filename: an accessor on an object one level below process whose setter
// writes Node's per-process C++ option (per_process::cli_options->report_filename), which the
// getter reads back from C++. Nothing of it is a JavaScript own data property.
// Technique: the report file name holds 'atk|tag1|tag2|...'; put(tag) appends the tag; get(tag)
// splits the current name. A fresh process has the empty file name.
// Expected of a correct durasim: exit 1 (the option reset at a crash), or exit 4 if process.report
// is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';

function tags() { const f = String(process.report.filename ?? ''); return f.startsWith('atk|') ? f.split('|').slice(1) : []; }
export const stash = {
  put(tag) { const t = tags(); if (!t.includes(tag)) t.push(tag); process.report.filename = ['atk', ...t].join('|'); },
  get(tag) { return tags().includes(tag) ? 'alive' : undefined; },
};
export default memoryJournal('b05-report-filename', verified('b05-report-filename', stash));
