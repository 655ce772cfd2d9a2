"""Background work for army lists."""
from celery import shared_task

from armylists import services


@shared_task(name="armylists.revalidate_chart_lists")
def revalidate_chart_lists(chart_id: int) -> int:
    """Re-check every stored list of a chart (after a TO edited the chart)."""
    return services.revalidate_chart_lists(chart_id)
