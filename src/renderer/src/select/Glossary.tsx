// A short glossary of the lab's symbols and variants, folded by default.
import { variants } from '../../../shared/api';
import { terms, variantHelp } from './glossary';

export function Glossary() {
  return (
    <details className="glossary" data-testid="glossary">
      <summary>What the numbers mean</summary>
      <ul className="small">
        {Object.entries(terms).map(([key, text]) => (
          <li key={key}>{text}</li>
        ))}
      </ul>
      <p className="small muted">Variants</p>
      <ul className="small">
        {variants.map((v) => (
          <li key={v}>{variantHelp[v]}</li>
        ))}
      </ul>
    </details>
  );
}
