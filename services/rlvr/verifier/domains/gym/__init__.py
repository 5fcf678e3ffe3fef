"""reasoning-gym tasks (`/gym`): the `<answer>` tag scored by the task's own scorer, in workers."""
