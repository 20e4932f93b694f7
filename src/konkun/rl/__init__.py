"""The research API: PettingZoo AEC environments and Gymnasium single-agent environments
for Konchinka and Kunken, with fixed action spaces, action masks, observation tensors and
JSON observations for language-model agents (``docs/rl.md``).

Needs the ``rl`` extra (``pettingzoo``, ``gymnasium``, ``numpy``); the engines never import
this package.
"""
