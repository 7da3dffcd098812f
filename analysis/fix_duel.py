"""The duel's edit space for the balance search (``analysis/fix.py``): every number of a
hero file, and the rule options.

Names (hero by key, name or unambiguous prefix; ability by name, any case)::

    light.Holy Attack.damage          an effect of a one-tier ability
    fire.Flame.tier1.damage           an effect of one tier (1-based) of a tiered ability
    mountain.defence.heart.heal       a defence symbol's effect
    rules.start_hp                    a rule option

``--vary auto`` (or ``auto=light,fire``): every non-zero damage, heal, cp, wounds and
steal number of each ability tier, and every defence symbol number, of the named heroes
(all heroes if none is named). Patched hero files keep their comments and layout
(tomlkit edits the one value).
"""
from __future__ import annotations

import copy
from pathlib import Path

from simcore.duel.model import BOOL_EFFECTS, DEFENCE_EFFECTS, EFFECTS, find_hero
from simcore.errors import PlaytestError

from .fix import RulesSpace

NUMBER_EFFECTS = tuple(e for e in EFFECTS if e not in BOOL_EFFECTS)


class DuelSpace(RulesSpace):
    def __init__(self, game, rules_file=None, sets=None, content=None, players=None):
        super().__init__(game, rules_file, sets, content, players)
        self.heroes = self.content

    # ---------------------------------------------------------------- names
    def _hero(self, text: str):
        i = find_hero(self.heroes, text, "--vary")
        return i, self.heroes[i]

    def resolve(self, name: str):
        parts = [p.strip() for p in name.split(".")]
        if parts[0].lower() == "rules":
            return super().resolve(name)
        if len(parts) < 3:
            raise PlaytestError(f"malformed name {name!r}: expected HERO.ABILITY[.tierN].EFFECT, "
                                "HERO.defence.SYMBOL.EFFECT or rules.OPTION", field="--vary")
        h, hero = self._hero(parts[0])
        if parts[1].lower() == "defence" and len(parts) == 4:
            sym, eff = parts[2], parts[3].lower()
            if sym not in hero.symbols:
                raise PlaytestError(f"{hero.name}'s die has no symbol {sym!r} (symbols: {', '.join(hero.symbols)})",
                                    field="--vary")
            if eff not in DEFENCE_EFFECTS:
                raise PlaytestError(f"unknown defence effect {eff!r} (effects: {', '.join(DEFENCE_EFFECTS)})",
                                    field="--vary")
            base = hero.defence.get(sym, {}).get(eff, 0)
            return f"{hero.key}.defence.{sym}.{eff}", int(base), (0, 1000)
        a = hero.ability_index(parts[1], "--vary")
        ab = hero.abilities[a]
        rest = parts[2:]
        tier = None
        if len(rest) == 2:
            t = rest[0].lower()
            if not (t.startswith("tier") and t[4:].isdigit()):
                raise PlaytestError(f"malformed tier {rest[0]!r} in {name!r}: expected tier1, tier2...", field="--vary")
            tier = int(t[4:]) - 1
            if not 0 <= tier < len(ab.tiers):
                raise PlaytestError(f"{ab.name} has {len(ab.tiers)} tier(s), got {rest[0]!r}", field="--vary")
        elif len(rest) != 1:
            raise PlaytestError(f"malformed name {name!r}: expected HERO.ABILITY[.tierN].EFFECT", field="--vary")
        elif ab.tiered:
            raise PlaytestError(f"{ab.name} has {len(ab.tiers)} tiers: name one ({hero.key}.{ab.name}.tier1."
                                f"{rest[0]})", field="--vary")
        eff = rest[-1].lower()
        if eff in BOOL_EFFECTS:
            raise PlaytestError(f"{eff} is true/false, not a number to search", field="--vary")
        if eff not in NUMBER_EFFECTS:
            raise PlaytestError(f"unknown effect {rest[-1]!r} (effects: {', '.join(NUMBER_EFFECTS)})", field="--vary")
        base = ab.tiers[tier or 0].effects[eff]
        t = f".tier{tier + 1}" if tier is not None else ""
        return f"{hero.key}.{ab.name}{t}.{eff}", int(base), (0, 1000)

    def auto_params(self, heroes: list[str]) -> list:
        idx = [self._hero(h)[0] for h in heroes] if heroes else range(len(self.heroes))
        out = []
        for i in dict.fromkeys(idx):
            hero = self.heroes[i]
            for ab in hero.abilities:
                for k, tier in enumerate(ab.tiers):
                    t = f".tier{k + 1}" if ab.tiered else ""
                    for e in NUMBER_EFFECTS:
                        if tier.effects[e]:
                            out.append((f"{hero.key}.{ab.name}{t}.{e}", int(tier.effects[e])))
            for sym, effs in hero.defence.items():
                for e, v in effs.items():
                    if v:
                        out.append((f"{hero.key}.defence.{sym}.{e}", int(v)))
        return out

    # ---------------------------------------------------------------- variants
    def _locate(self, name: str):
        """(hero index, kind, ...) of a canonical name."""
        key, rest = name.split(".", 1)
        h = next(i for i, x in enumerate(self.heroes) if x.key == key)
        parts = rest.split(".")
        if parts[0] == "defence":
            return h, "defence", parts[1], parts[2]
        ab = self.heroes[h].ability_index(parts[0])
        tier = int(parts[1][4:]) - 1 if len(parts) == 3 else 0
        return h, "ability", ab, tier, parts[-1]

    def variant(self, values: dict):
        rules, heroes = super().variant(values)
        edits = {k: v for k, v in values.items() if not k.startswith("rules.")}
        if not edits:
            return rules, heroes
        heroes = copy.deepcopy(heroes)
        for name, v in edits.items():
            loc = self._locate(name)
            hero = heroes[loc[0]]
            if loc[1] == "defence":
                sym, eff = loc[2], loc[3]
                hero.defence.setdefault(sym, {e: 0 for e in DEFENCE_EFFECTS})[eff] = int(v)
            else:
                hero.abilities[loc[2]].tiers[loc[3]].effects[loc[4]] = int(v)
        return rules, heroes

    # ---------------------------------------------------------------- files
    def patched_files(self, values: dict) -> list:
        import tomlkit

        out = list(super().patched_files(values))
        by_hero: dict = {}
        for name, v in values.items():
            if name.startswith("rules."):
                continue
            loc = self._locate(name)
            hero = self.heroes[loc[0]]
            cur = (hero.defence.get(loc[2], {}).get(loc[3], 0) if loc[1] == "defence"
                   else hero.abilities[loc[2]].tiers[loc[3]].effects[loc[4]])
            if int(v) != int(cur):
                by_hero.setdefault(loc[0], []).append((loc, int(v)))
        for h, edits in sorted(by_hero.items()):
            hero = self.heroes[h]
            path = Path(hero.source)
            old = path.read_text()
            doc = tomlkit.parse(old)
            for loc, v in edits:
                if loc[1] == "defence":
                    syms = doc["defence"].setdefault("symbols", tomlkit.inline_table())
                    if loc[2] not in syms:
                        syms[loc[2]] = tomlkit.inline_table()
                    syms[loc[2]][loc[3]] = v
                    continue
                ab_name = hero.abilities[loc[2]].name.lower()
                tab = next(a for a in doc["abilities"] if str(a["name"]).strip().lower() == ab_name)
                tgt = tab["tiers"][loc[3]] if "tiers" in tab else tab
                tgt[loc[4]] = v
            out.append((f"heroes/{path.name}", old, tomlkit.dumps(doc)))
        return out

    def source_label(self, rel: str) -> str:
        if rel.startswith("heroes/"):
            name = rel.split("/", 1)[1]
            for h in self.heroes:
                if Path(h.source).name == name:
                    return h.source
        return super().source_label(rel)

    def write_patched(self, values: dict, out: Path) -> list[Path]:
        """The patched files under ``out`` (``out/heroes`` holds every hero, edited or not,
        so ``--heroes out/heroes`` plays the proposal)."""
        out = Path(out)
        (out / "heroes").mkdir(parents=True, exist_ok=True)
        files = {rel: new for rel, _old, new in self.patched_files(values)}
        written = []
        for h in self.heroes:
            p = Path(h.source)
            rel = f"heroes/{p.name}"
            (out / rel).write_text(files.get(rel, p.read_text()))
            written.append(out / rel)
        if "rules.toml" in files:
            (out / "rules.toml").write_text(files["rules.toml"])
            written.append(out / "rules.toml")
        return written
