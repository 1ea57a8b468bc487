"""The battles' exclusive-rule mechanisms, one module each (rules/core/battle_rule.py ``BattleRule``), and
the one explicit tuple that lists them all, in the order their hooks are called."""

from __future__ import annotations

from rules.mechanisms.army_rout import ArmyRoutRule
from rules.mechanisms.creeks import Creeks
from rules.mechanisms.demoralization import DemoralizationRule
from rules.mechanisms.early_arrival import EarlyArrivalRule
from rules.mechanisms.leaders import LeadersRule
from rules.mechanisms.restraints import Restraints

#: Every mechanism, in the order the mechanics call their hooks (a game holds those its battle sets).
MECHANISMS = (Restraints, Creeks, LeadersRule, ArmyRoutRule, EarlyArrivalRule, DemoralizationRule)
