"""Portable dialogs: the sequential flow over a host's select/input dialogs, and pi RPC.

``flow.run_dialog_flow`` asks over any ``DialogPort``; ``port.RpcDialogs`` speaks pi's
``extension_ui_request``/``extension_ui_response`` JSON lines on two streams.
"""
