// The context-budget preview: the <available_skills> text an agent gets, cut per entry and to the whole budget.
import { describe, expect, it } from 'vitest';
import { budgetListing, type ListingSkill } from '../../src/core/install/budget';

const skill = (id: number, name: string, description: string): ListingSkill => ({
  id,
  name,
  description,
  location: `/home/u/.claude/skills/${name}/SKILL.md`,
});

describe('budget listing', () => {
  it('lists every skill in full when it fits, in the Agent Skills catalogue format', () => {
    const p = budgetListing([skill(1, 'heat', 'Heats <food> & drinks.'), skill(2, 'cool', 'Cools.')], {
      agent: 'claude',
      budgetChars: 1000,
      maxEntryChars: 1536,
    });
    expect(p.text).toBe(
      '<available_skills>\n' +
        '  <skill>\n    <name>heat</name>\n    <description>Heats &lt;food&gt; &amp; drinks.</description>\n' +
        '    <location>/home/u/.claude/skills/heat/SKILL.md</location>\n  </skill>\n' +
        '  <skill>\n    <name>cool</name>\n    <description>Cools.</description>\n' +
        '    <location>/home/u/.claude/skills/cool/SKILL.md</location>\n  </skill>\n' +
        '</available_skills>\n',
    );
    expect(p.entries.map((e) => e.fate)).toEqual(['full', 'full']);
    expect(p.usedChars).toBe(4 + 22 + 4 + 6);
    expect(p.fullChars).toBe(p.usedChars);
  });

  it('cuts an entry past the per-entry cap to exactly that many characters of name and description', () => {
    const p = budgetListing([skill(1, 'long', 'x'.repeat(2000))], {
      agent: 'claude',
      budgetChars: 10_000,
      maxEntryChars: 1536,
    });
    expect(p.entries[0]).toMatchObject({ chars: 2004, shownChars: 1536, fate: 'cut' });
    expect(p.text).toContain(`<description>${'x'.repeat(1532)}</description>`);
    expect(p.text).not.toContain('x'.repeat(1533));
  });

  it('over budget, the last entries lose their description first, then are dropped', () => {
    const skills = [
      skill(1, 'aaaa', 'd'.repeat(96)),
      skill(2, 'bbbb', 'd'.repeat(96)),
      skill(3, 'cccc', 'd'.repeat(96)),
    ];
    const namesOnly = budgetListing(skills, { agent: 'claude', budgetChars: 250, maxEntryChars: 1536 });
    expect(namesOnly.entries.map((e) => e.fate)).toEqual(['full', 'full', 'name-only']);
    expect(namesOnly.usedChars).toBe(204);
    expect(namesOnly.text).toContain('<name>cccc</name>\n    <location>');
    const dropped = budgetListing(skills, { agent: 'claude', budgetChars: 6, maxEntryChars: 1536 });
    expect(dropped.entries.map((e) => e.fate)).toEqual(['name-only', 'dropped', 'dropped']);
    expect(dropped.usedChars).toBe(4);
    expect(dropped.text).not.toContain('bbbb');
    expect(dropped.fullChars).toBe(300);
  });
});
