"""Shell completion for ``pi-ask``, through argcomplete (imported only here).

``pi-ask completion SHELL`` prints a script that the shell sources once. On each Tab the shell
runs ``pi-ask`` with ``_ARGCOMPLETE`` set; ``cli.main`` then hands the whole parser to
``complete``, which writes the candidates for the shell and exits before any command runs. So
completion always knows every command and option, with nothing to regenerate on upgrade.
"""

from __future__ import annotations

import argparse

SHELLS = ("bash", "zsh", "fish")

INSTALL = """\
Load it in each new shell:
  bash  echo 'eval "$(pi-ask completion bash)"' >> ~/.bashrc
  zsh   echo 'eval "$(pi-ask completion zsh)"' >> ~/.zshrc
  fish  pi-ask completion fish > ~/.config/fish/completions/pi-ask.fish"""


def shell_script(shell: str) -> str:
    """The completion script for ``shell`` (one of ``SHELLS``)."""
    from argcomplete.shell_integration import shellcode

    return shellcode(["pi-ask"], shell=shell)


def complete(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's completion request for ``parser``, then exit the process."""
    import argcomplete

    argcomplete.autocomplete(parser)
