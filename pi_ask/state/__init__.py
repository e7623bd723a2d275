"""Pure ask-flow state: commands, the ``apply`` dispatcher, selectors and result building.

Imports only the standard library and ``pi_ask.contract``: no I/O, no prompt_toolkit, no
config. A face builds a state with ``opening.new_state``, sends every key as a command
through ``dispatcher.apply``, draws from the selectors, and once ``completed`` returns
``results.build_result``. ``model`` alone is what ``config.settings`` needs on every start.
"""
