// The answer of each variant of one run, side by side, gold skills marked; choosing one shows its graph and tables.
import type { SelectionResult, Variant } from '../../../shared/api';
import { denseByWordsNote, denseRanksByWords } from '../../../shared/dense-words';
import { variantHelp } from './glossary';
import { traceOf } from './trace-view';
import { countOf } from '../../../shared/count-words';

export function VariantAnswers({
  results,
  focus,
  onFocus,
  whatIf,
}: {
  results: SelectionResult[];
  focus: Variant | null;
  onFocus: (v: Variant) => void;
  /** The focused variant replayed with what-if edits: its card shows that answer, marked, while the edits stand. */
  whatIf?: SelectionResult | null;
}) {
  return (
    <section className="panel" aria-label="Variants side by side">
      <h2>Answers</h2>
      <div className="variant-columns" data-testid="variant-answers">
        {results.map((run) => {
          const edited = whatIf && run.variant === focus ? whatIf : null;
          const r = edited ?? run;
          const t = traceOf(r);
          const gold = new Set(r.why?.gold ?? []);
          return (
            <button
              key={r.variant}
              className={r.variant === focus ? 'variant-card active' : 'variant-card'}
              onClick={() => onFocus(r.variant)}
              data-variant={r.variant}
              title={variantHelp[r.variant]}
            >
              <strong>{r.variant}</strong>
              {t.k !== null && <span className="muted small"> k={t.k}</span>}
              {edited && (
                <span className="badge status-edited" data-testid="card-what-if">
                  what-if
                </span>
              )}
              <ol>
                {r.answer.map((a) => (
                  <li key={a.name} data-gold={gold.has(a.name) ? 'true' : undefined}>
                    {a.name}
                    {gold.has(a.name) && <span className="badge gold">gold</span>}
                  </li>
                ))}
              </ol>
              {t.abstention?.abstained ? (
                <p className="small" data-testid="abstained">
                  <span className="badge warn">no skill fits</span> {t.reason}
                  {t.abstention.wouldAnswer.length > 0 &&
                    `. Without the threshold: ${t.abstention.wouldAnswer.join(', ')}.`}
                </p>
              ) : (
                r.answer.length === 0 && <p className="muted small">{t.reason ?? 'empty answer'}</p>
              )}
              {r.why?.gold && (
                <span className="small" data-testid="gold-found">
                  {r.answer.filter((a) => gold.has(a.name)).length} of {r.why.gold.length} gold
                </span>
              )}
              {denseRanksByWords(t) && (
                <span className="muted small" data-testid="dense-lexical">
                  {denseByWordsNote}
                </span>
              )}
              <span className="muted small">
                {countOf(t.counts.pairs, 'pair')} · {countOf(t.counts.llmCalls, 'LLM call')} ·{' '}
                {Math.round(t.execution.totalMs)} ms
              </span>
            </button>
          );
        })}
      </div>
    </section>
  );
}
