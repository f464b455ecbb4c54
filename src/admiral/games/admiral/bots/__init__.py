"""Bots for «Адмирал», levels 1–5 (rules §12): input a :class:`~admiral.games.admiral.rules.PlayerView` of the
bot's own side (plus the bot's memory of earlier views), output a legal action.

- 1 «Юнга» (:class:`RandomBot`): random legal moves, attacks whenever it can.
- 2 «Мичман»: greedy one ply on what it knows: the expected exchange of each attack over identities
  sampled from the public removal counts and the battle report it has just read (no memory of
  older reports, a noisy choice; level 3's deductions from movement and setup); otherwise the
  positional step of level 3's plan.
  A novice's setup: both bases just behind the front row, the rest auto-arranged.
- 3 «Капитан-лейтенант»: heuristic evaluation (unit values, a positional plan: approach the enemy
  and its likely bases, keep weapons by their carriers, keep weak units out of contact) with
  memory of revealed units while they stay on their cells, and the deductions from movement and
  setup (a marker that moved is not СМ/ВМБ, a front-row starter is not ВМБ); chooses its
  defending declaration by expected exchange. Both bases on the back edge, apart; the rest
  auto-arranged.
- 4 «Капитан 1 ранга» (Captain 1st Rank; once the maximum): level 3 plus a two-ply search (its 48 best
  actions, each followed over up to 30 determinizations sampled from its belief by the reply the
  opponent would choose on what it has seen of the bot's fleet). Its determinizations agree with
  everything its views have shown: a unit a battle report revealed keeps its kind after it closes
  again and moves, since the views show each step of its marker. Bases expected deep in the enemy's
  zone, and a setup that guards its bases (each on the back edge between two mines, a destroyer in
  front, in columns drawn anew every game).
- 5 «Адмиральский»: level 4 (searching 64 actions over up to 30 determinizations) plus full belief
  tracking: on top of the memory and deductions above, the carriers read from the weapons' tethers
  (an air strike, a torpedo shot, a step of a known weapon, an armed or a dummy torpedo say which
  markers beside it can or cannot be its ``A``/``ТК``/``ЭС``), and the carrier hunted once only a few
  markers can be it; formations assembled before striking, base defence (strike ships shift towards a
  threatened base, and a lesser unit stays beside each base to close it), the atomic bomb on a
  favourable expected exchange, and the whole deliberate setup (strike formations in the front row as
  well as guarded bases).

``make_bot(level, seed)`` builds one; ``admiral tournament`` measures them (:mod:`.tournament`).
"""

from .belief import Belief, Mark
from .bots import LEVELS, Bot, HeuristicBot, Level, RandomBot, make_bot

__all__ = ["LEVELS", "Belief", "Bot", "HeuristicBot", "Level", "Mark", "RandomBot", "make_bot"]
