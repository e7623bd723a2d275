"""What every face of one ask shares.

``face``: the face protocol, ``FaceRequest`` (the one options object a face gets) and
``load_face``; ``services``: what runs beside a face (live settings, the "question waiting"
notification and its reminders, the event bus, the notice line, the deadline);
``routing``: which face an ask opens in.
"""
