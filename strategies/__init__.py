"""Pluggable policies. Each game has a module of built-in strategies and accepts a user
strategy as ``--strategy package.module:function`` (see each game's base module)."""
