"""The faces: each draws an ask and reads the user's input, nothing else.

An interactive face (``tui``, ``plain``, ``rpc``) has one entry, ``face.run(state, request)``;
a request/response face (``mcp``'s form) renders state and parses replies, and its host
applies them. Faces never import each other; ``pi_ask.face_table`` lists them.
"""
