// Which variants to run, and k (ranked variants) and K (recall) when not the defaults from Settings.
import { variants, type Variant } from '../../../shared/api';
import { variantHelp } from './glossary';

export interface VariantOptionsProps {
  chosen: Variant[];
  onChosen: (v: Variant[]) => void;
  k: number | '';
  onK: (k: number | '') => void;
  recallK: number | '';
  onRecallK: (k: number | '') => void;
}

export function VariantOptions({ chosen, onChosen, k, onK, recallK, onRecallK }: VariantOptionsProps) {
  return (
    <fieldset className="variant-picker">
      <legend>Variants</legend>
      {variants.map((v) => (
        <label key={v} className="check" title={variantHelp[v]}>
          <input
            type="checkbox"
            name={`variant-${v}`}
            checked={chosen.includes(v)}
            onChange={(e) => onChosen(e.target.checked ? [...chosen, v] : chosen.filter((c) => c !== v))}
          />
          {v}
        </label>
      ))}
      <label title="How many skills the ranked variants (no-parse, dense, llm) answer with; empty: the default from Settings">
        k{' '}
        <input
          className="narrow"
          type="number"
          min={1}
          value={k}
          onChange={(e) => onK(e.target.value ? Number(e.target.value) : '')}
          placeholder="default"
          aria-label="k"
        />
      </label>
      <label title="How many candidates the recall passes on to the scoring; empty: the default from Settings">
        K{' '}
        <input
          className="narrow"
          type="number"
          min={1}
          value={recallK}
          onChange={(e) => onRecallK(e.target.value ? Number(e.target.value) : '')}
          placeholder="default"
          aria-label="Recall K"
        />
      </label>
    </fieldset>
  );
}
