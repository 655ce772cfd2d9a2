FROM python:3.11-slim-bookworm
# Pango and HarfBuzz's subsetter for WeasyPrint; gettext to compile the translations.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core gettext \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY . .
RUN pip install --no-cache-dir . \
 && python manage.py compilemessages --ignore=.venv \
 && SECRET_KEY=build python manage.py collectstatic --noinput
ENV MUSTER_DATA_DIR=/data MEDIA_ROOT=/data/media
EXPOSE 8000
# A web node; migrations are a release step of their own (`python manage.py migrate`), never run here.
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "config.wsgi"]
