"""`POST /code`: PLACEHOLDER until the code domain lands."""

from fastapi import APIRouter

router = APIRouter(tags=["code"])
