"""The guided first game (``/learn/konchinka``, ``/learn/kunken``): a short scripted deal
against a bot on a fixed seed, each step a taught move with the reason in English and
Russian, then free play to the end of the deal (docs/web.md, "The guided first game").

:mod:`konkun.learn.lesson` reads the lesson files and replays a lesson from the player's
moves alone: the deal, the bot's replies and the step reached all follow from the seed, so
the server keeps nothing between requests.
"""

from konkun.learn.lesson import (
    Lesson,
    LessonError,
    LessonRun,
    NotTaughtError,
    Step,
    load_lesson,
    replay,
)

__all__ = ["Lesson", "LessonError", "LessonRun", "NotTaughtError", "Step", "load_lesson",
           "replay"]
