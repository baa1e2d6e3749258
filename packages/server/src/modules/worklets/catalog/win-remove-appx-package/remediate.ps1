<#
Patchwell worklet win-remove-appx-package: remediation.
Removes the Store (AppX) app $PackageName from the Windows image (so new users do not get
it) and from every user who has it. Apps Windows marks as non-removable are refused.
Exit 0 = gone, 1 = some copies remain, 2 = invalid name.
#>
# Parameter: the package name (not the full name), e.g. Microsoft.BingNews.
$PackageName = 'Microsoft.BingNews'

$fix = {
    param([string]$PackageName)
    if ($PackageName -notmatch '^[A-Za-z0-9][A-Za-z0-9.\-]{2,}$') {
        Write-Output "'$PackageName' is not an AppX package name (letters, digits, dots and dashes, no wildcards)."
        exit 2
    }
    $errors = @()
    foreach ($image in @(Get-AppxProvisionedPackage -Online -ErrorAction SilentlyContinue | Where-Object { $_.DisplayName -eq $PackageName })) {
        try {
            Remove-AppxProvisionedPackage -Online -PackageName $image.PackageName -ErrorAction Stop | Out-Null
        } catch {
            $errors += "image: $($_.Exception.Message)"
        }
    }
    foreach ($package in @(Get-AppxPackage -AllUsers -Name $PackageName -ErrorAction SilentlyContinue)) {
        if ($package.NonRemovable) {
            Write-Output "Refused: Windows marks $($package.PackageFullName) as non-removable."
            exit 1
        }
        try {
            Remove-AppxPackage -Package $package.PackageFullName -AllUsers -ErrorAction Stop
        } catch {
            $errors += "$($package.PackageFullName): $($_.Exception.Message)"
        }
    }
    $left = @(Get-AppxPackage -AllUsers -Name $PackageName -ErrorAction SilentlyContinue).Count +
        @(Get-AppxProvisionedPackage -Online -ErrorAction SilentlyContinue | Where-Object { $_.DisplayName -eq $PackageName }).Count
    if ($left -eq 0) {
        Write-Output "Remediated: $PackageName was removed for all users and from the image."
        exit 0
    }
    Write-Output "Failed: $left copy(ies) of $PackageName remain. $($errors -join ' ')"
    exit 1
}

# The Appx and DISM cmdlets fail in a 32-bit PowerShell on 64-bit Windows.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix -args $PackageName
    exit $LASTEXITCODE
}
& $fix $PackageName
