<#
Patchwell worklet win-remove-appx-package: evaluation.
Checks that the Store (AppX) app $PackageName is neither installed for any user nor
provisioned in the Windows image (where it would be installed for every new user).
Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = invalid name.
#>
# Parameter: the package name (not the full name), e.g. Microsoft.BingNews.
$PackageName = 'Microsoft.BingNews'

$check = {
    param([string]$PackageName)
    if ($PackageName -notmatch '^[A-Za-z0-9][A-Za-z0-9.\-]{2,}$') {
        Write-Output "'$PackageName' is not an AppX package name (letters, digits, dots and dashes, no wildcards)."
        exit 2
    }
    $installed = @(Get-AppxPackage -AllUsers -Name $PackageName -ErrorAction SilentlyContinue)
    $provisioned = @(Get-AppxProvisionedPackage -Online -ErrorAction SilentlyContinue | Where-Object { $_.DisplayName -eq $PackageName })
    if ($installed.Count -eq 0 -and $provisioned.Count -eq 0) {
        Write-Output "Compliant: $PackageName is not installed or provisioned."
        exit 0
    }
    Write-Output "$PackageName is present: $($installed.Count) installed package(s), $($provisioned.Count) provisioned."
    exit 1
}

# The Appx and DISM cmdlets fail in a 32-bit PowerShell on 64-bit Windows.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check -args $PackageName
    exit $LASTEXITCODE
}
& $check $PackageName
